import type express from 'express';

let loading: Promise<typeof express> | null = null;

/**
 * express, loaded the first time the agent needs it (a request body to parse, an MCP or OAuth
 * request): its packages (body-parser, mime-db, router, send, …) hold about 3 MB of V8's heap,
 * which an agent that only serves reads never pays for.
 */
export function loadExpress(): Promise<typeof express> {
  loading ??= import('express').then((module) => module.default);
  return loading;
}
