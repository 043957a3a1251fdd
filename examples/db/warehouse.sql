-- The example database: an H2 database in memory, created afresh by the first connection of a
-- run from this script (config.example.yaml's sources.db.warehouse). Every statement is
-- idempotent, because H2 runs the script for every connection the pool opens.
CREATE TABLE IF NOT EXISTS stock (
  sku        VARCHAR(16) PRIMARY KEY,
  name       VARCHAR(100) NOT NULL,
  quantity   INTEGER NOT NULL,
  unit_price DECIMAL(12, 4) NOT NULL,
  counted_at TIMESTAMP(6) WITH TIME ZONE NOT NULL,
  discontinued BOOLEAN NOT NULL
);
MERGE INTO stock KEY (sku) VALUES
  ('SKU-0001', 'hex bolt M8', 1200, 0.0450, TIMESTAMP WITH TIME ZONE '2026-05-01 08:00:00.123456+00:00', FALSE),
  ('SKU-0002', 'washer 8mm', 5000, 0.0100, TIMESTAMP WITH TIME ZONE '2026-05-01 08:00:01+00:00', FALSE),
  ('SKU-0003', 'cable tie 200mm', 830, 0.0325, TIMESTAMP WITH TIME ZONE '2026-05-01 08:00:02.5+02:00', FALSE),
  ('SKU-0004', 'rack rail 1U', 12, 18.9900, TIMESTAMP WITH TIME ZONE '2026-05-01 08:00:03+00:00', TRUE);

CREATE TABLE IF NOT EXISTS movements (
  id         BIGINT PRIMARY KEY,
  sku        VARCHAR(16) NOT NULL,
  delta      INTEGER NOT NULL,
  moved_at   TIMESTAMP(3) NOT NULL
);
MERGE INTO movements KEY (id) VALUES
  (1, 'SKU-0001', -200, TIMESTAMP '2026-05-01 09:15:00.250'),
  (2, 'SKU-0002', 1000, TIMESTAMP '2026-05-01 09:16:10'),
  (3, 'SKU-0004', -2, TIMESTAMP '2026-05-01 10:02:44.5'),
  (4, 'SKU-0003', 150, TIMESTAMP '2026-05-01 11:30:00');
