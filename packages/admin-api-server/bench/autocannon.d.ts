// autocannon ships no types; the benchmark uses only this part of its API.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    /** Of `requests`: how many completed. */
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    /** Seconds the run actually lasted. */
    duration: number;
  }
  function autocannon(options: {
    url: string;
    connections: number;
    duration: number;
    workers?: number;
    headers?: Record<string, string>;
  }): Promise<Result>;
  export default autocannon;
}
