-- A sweep being measured is claimed by the process measuring it: one lease
-- per sweep name, platform and measured host, with the claimant's pid and
-- machine, renewed by a heartbeat. A second process finds it and waits or
-- goes elsewhere; a lease whose process is gone (a dead pid on the same
-- machine, or no heartbeat for a while) is taken over.
CREATE TABLE sweep_leases (
    sweep        TEXT NOT NULL,
    platform_id  INTEGER NOT NULL REFERENCES platforms(id),
    host_id      INTEGER NOT NULL REFERENCES hosts(id),
    pid          INTEGER NOT NULL,
    holder       TEXT NOT NULL,           -- the machine tune runs on (gethostname)
    since        TEXT NOT NULL,           -- UTC, ISO 8601
    heartbeat    REAL NOT NULL,           -- julianday('now') when last renewed
    PRIMARY KEY (sweep, platform_id, host_id)
);
