-- Schema version 11: the variant a sweep's kernel is compared with (its
-- manifest's `baseline:`), recorded with the sweep so that the results can
-- say how much faster an optimum is without the manifest. The sweeps
-- recorded before get the baseline of the shipped kernel they measured.
ALTER TABLE sweeps ADD COLUMN baseline TEXT;
UPDATE sweeps SET baseline = CASE (SELECT t.kernel FROM trials t WHERE t.sweep_id = sweeps.id LIMIT 1)
    WHEN 'chase' THEN 'scalar' WHEN 'ipa' THEN 'interrupt' WHEN 'sched' THEN 'co' END;
