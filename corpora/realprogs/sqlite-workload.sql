-- A deterministic SQL workload for the SQLite shell (oracle realprogs):
-- a 100k-row table generated with a recursive CTE, indices, joins,
-- aggregates, window functions and ORDER BY. Every query orders its
-- output completely, so the shell built by phicc must print exactly what
-- the shell built by the target's gcc -O0 prints.
.headers off
.mode list
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c TEXT, d REAL);
WITH RECURSIVE seq(i, x) AS (
  SELECT 1, 12345
  UNION ALL
  SELECT i + 1, (x * 1103515245 + 12345) % 2147483648 FROM seq WHERE i < 100000
)
INSERT INTO t(id, a, b, c, d)
SELECT i, x % 1000, (x / 1000) % 97, printf('k%05d-%s', x % 50000, substr('abcdefghij', 1 + x % 10, 3)), (x % 100000) / 7.0
FROM seq;
CREATE TABLE g(b INTEGER PRIMARY KEY, name TEXT, w INTEGER);
WITH RECURSIVE s(b) AS (SELECT 0 UNION ALL SELECT b + 1 FROM s WHERE b < 96)
INSERT INTO g SELECT b, 'group' || b, (b * 37) % 11 FROM s;
CREATE INDEX t_a ON t(a);
CREATE INDEX t_bc ON t(b, c);
CREATE INDEX t_c ON t(c);
SELECT count(*), sum(a), sum(b), min(c), max(c), printf('%.4f', sum(d)) FROM t;
SELECT a, count(*), sum(b) FROM t WHERE a BETWEEN 100 AND 120 GROUP BY a ORDER BY a;
SELECT g.name, count(*), avg(t.a), max(t.d) FROM t JOIN g ON g.b = t.b
  GROUP BY g.b ORDER BY count(*) DESC, g.b LIMIT 20;
SELECT g.w, count(DISTINCT t.a), total(t.a * g.w) FROM t JOIN g USING (b)
  GROUP BY g.w ORDER BY g.w;
SELECT c, count(*) FROM t GROUP BY c HAVING count(*) > 4 ORDER BY count(*) DESC, c LIMIT 25;
SELECT id, a, b, c FROM t WHERE c LIKE 'k0001%' ORDER BY c, id LIMIT 30;
SELECT x.id, y.id, x.a FROM t AS x JOIN t AS y ON y.a = x.a AND y.b = x.b AND y.id > x.id
  WHERE x.id <= 2000 ORDER BY x.id, y.id LIMIT 40;
SELECT b, a, rank() OVER (PARTITION BY b ORDER BY a DESC, id) AS r FROM t
  WHERE b < 3 ORDER BY b, r LIMIT 30;
SELECT b, sum(a) OVER (ORDER BY b ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM
  (SELECT b, sum(a) AS a FROM t GROUP BY b) ORDER BY b;
UPDATE t SET a = a + 1 WHERE b % 5 = 0;
DELETE FROM t WHERE a % 13 = 0;
SELECT count(*), sum(a), group_concat(DISTINCT b % 7) FROM t;
SELECT substr(c, 1, 2) AS p, count(*), min(id), max(id), printf('%.3f', avg(d)) FROM t
  GROUP BY p ORDER BY p;
SELECT a, b FROM t WHERE id IN (SELECT id FROM t WHERE b = 42 ORDER BY a, id LIMIT 10) ORDER BY a, b, id;
SELECT hex(zeroblob(4)), upper('phicc'), length(group_concat(c, ',')) FROM (SELECT c FROM t ORDER BY id LIMIT 1000);
SELECT count(*) FROM t AS x WHERE NOT EXISTS (SELECT 1 FROM g WHERE g.b = x.b AND g.w = 0);
PRAGMA integrity_check;
