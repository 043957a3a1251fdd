package dfe.fetcher.row;

/**
 * Where a unit has got to: the small value a source hands the driver and the driver commits as the
 * unit's checkpoint once the transport has acknowledged everything before it. Sources produce
 * marks; only the driver folds and commits them.
 */
public sealed interface Mark permits FileMark {}
