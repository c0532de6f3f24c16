-- Schema version 13: an optimum's gain over its kernel's baseline, run by
-- run, when one process measured both (ipa's T = 0 beside its thresholds):
-- a JSON object {ratio, low, high, runs, coverage} of the baseline's metric
-- over the optimum's, each run's ratio taken within the run so that drift
-- cancels. NULL when they were measured in different processes, and for
-- optima recorded before: the headline then divides the medians.
ALTER TABLE optima ADD COLUMN baseline_paired TEXT;
