// The part of autocannon's API the benchmark uses (the package ships no type declarations).
declare module 'autocannon' {
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  interface AutocannonResult {
    errors: number;
    non2xx: number;
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
