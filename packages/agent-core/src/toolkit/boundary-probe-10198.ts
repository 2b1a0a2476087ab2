import { createAgentRouter } from '../http';

export const probe = createAgentRouter;
