/**
 * The parsed request of an operation, read by the adapter only once the operation has checked
 * the caller's right: a caller without the right is refused whatever the request holds, as the
 * stage order of agent-http-protocol §1.5 says (an adapter with nothing to parse passes a
 * function returning a constant).
 */
export type ParsedRequest<T> = () => T;
