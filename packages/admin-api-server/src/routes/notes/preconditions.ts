import type { Request } from 'express';
import { ApiError } from '../../errors';
import { idParam } from '../../validation/input-rules';

/** Reads `:noteId`, a positive integer. */
export function noteIdParam(req: Request): number {
  return idParam('noteId', req.params.noteId);
}

/**
 * The version `If-Match` requires, `undefined` when the header is absent or `*`. A value that is
 * not an ETag of this note can never match: 412.
 */
export function expectedVersion(req: Request, noteId: number): number | undefined {
  const header = req.get('if-match');
  if (header === undefined || header.trim() === '*') return undefined;
  const versions = header
    .split(',')
    .map((tag) => new RegExp(`^(?:W/)?"note-${noteId}-v(\\d+)"$`).exec(tag.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]));
  if (versions.length !== 1) {
    throw new ApiError(
      412,
      'precondition_failed',
      `If-Match must hold the current ETag of note ${noteId}, as returned by GET or a previous write.`,
    );
  }
  return versions[0];
}

/** The 412 of a write whose If-Match no longer matches. */
export function staleWrite(noteId: number): ApiError {
  return new ApiError(
    412,
    'precondition_failed',
    `Note ${noteId} changed since the ETag given in If-Match; read it again and retry.`,
  );
}

/** 404 for an unknown note of the environment. */
export function noteNotFound(noteId: number, environmentName: string): ApiError {
  return new ApiError(
    404,
    'note_not_found',
    `Environment "${environmentName}" has no note with id ${noteId}.`,
  );
}
