import { v7 as uuidv7, validate as uuidValidate } from 'uuid';

export const newId = (): string => uuidv7();

/** Ids that are not UUIDs can never name a row: answer "not found" without asking the database. */
export const isId = (value: string): boolean => uuidValidate(value);

export const now = (): string => new Date().toISOString();

/**
 * The `updated_at` of a change: now, but always after `previous`, so that every change makes a
 * new version (ETags are derived from it) even within one millisecond.
 */
export const nextTimestamp = (previous: string): string =>
  new Date(Math.max(Date.now(), Date.parse(previous) + 1)).toISOString();
