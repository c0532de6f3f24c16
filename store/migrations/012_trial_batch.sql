-- Schema version 12: which kernel process measured a trial, as the id of the
-- first trial of its batch. Trials of one batch were measured side by side
-- (interleaved in one process); a search compares trials of different
-- batches only through a trial re-measured in both (phase 'anchor').
-- Trials recorded before have none: each counts as measured alone.
ALTER TABLE trials ADD COLUMN batch INTEGER;
