-- Schema version 8: a kernel's views live in its folder (its manifest's
-- views: file) and are made in the database by a sweep of the kernel; this
-- table says which views are whose, and the hash of the SQL that made them,
-- so that a changed file replaces them and nothing else. ipa's and sched's
-- views, made by migrations 3, 4 and 7, are theirs: the next sweep of each
-- makes them again from its folder.
CREATE TABLE kernel_views (
    kernel   TEXT NOT NULL,
    name     TEXT NOT NULL,
    sql_hash TEXT NOT NULL,
    PRIMARY KEY (kernel, name)
);
INSERT INTO kernel_views (kernel, name, sql_hash) VALUES
    ('ipa', 'ipa_results', ''), ('sched', 'sched_results', ''), ('sched', 'sched_optima', '');
