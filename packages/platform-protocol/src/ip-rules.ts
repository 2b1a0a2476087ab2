/**
 * One rule of a project's IP whitelist (platform-protocol §4): a single address (`type: 0`), an
 * inclusive range of addresses (`type: 1`), or a CIDR block (`type: 2`). The platform stores and
 * serves them (`GET /liana/v1/ip-whitelist-rules`, `PUT /v1/project/{p}/ip-whitelist`); agents
 * and the testing sandbox enforce them.
 */
export type IpRule =
  | { type: 0; ip: string }
  | { type: 1; ipMinimum: string; ipMaximum: string }
  | { type: 2; range: string };
