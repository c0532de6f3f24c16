-- Schema version 10: the load average sampled as each batch of a sweep ended (the kernel's host:
-- here, or an agent's), its highest; sweeps.loadavg stays the one read as the
-- sweep started. NULL: none sampled (a Slurm node does not report it).
ALTER TABLE sweeps ADD COLUMN loadavg_max REAL;
