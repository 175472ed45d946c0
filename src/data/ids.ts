import { v7 as uuidv7, validate as uuidValidate } from 'uuid';

export const newId = (): string => uuidv7();

/** Ids that are not UUIDs can never name a row: answer "not found" without asking the database. */
export const isId = (value: string): boolean => uuidValidate(value);

export const now = (): string => new Date().toISOString();
