/**
 * A record that breaks a rule of its format, with what to fix in it: a load reports it
 * with its file and position and keeps the other records.
 */
export class RecordError extends Error {}
