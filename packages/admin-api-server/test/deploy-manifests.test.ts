import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { PACKAGE_DIR } from './helpers/cli-bundle';

// No cluster runs here: the manifests are checked against the Kubernetes API's JSON schemas
// (kubernetes-models' generated validators), and against what the image and the server expect.
const KUBERNETES_DIR = join(PACKAGE_DIR, 'deploy', 'kubernetes');
const MODELS = {
  'apps/v1/Deployment': Deployment,
  'v1/Secret': Secret,
  'v1/Service': Service,
} as const;
type Kind = keyof typeof MODELS;

interface Manifest {
  readonly file: string;
  readonly body: { apiVersion: string; kind: string } & Record<string, unknown>;
}

function manifests(): Manifest[] {
  return readdirSync(KUBERNETES_DIR)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(KUBERNETES_DIR, file), 'utf8')).map((document) => {
        if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
        return { file, body: document.toJS() as Manifest['body'] };
      }),
    );
}

function validate(body: Manifest['body']): void {
  const model = MODELS[`${body.apiVersion}/${body.kind}` as Kind];
  if (!model) throw new Error(`no schema for ${body.apiVersion} ${body.kind}`);
  // Each model's constructor takes its own shape; the schema check is what matters here.
  new (model as unknown as new (data: unknown) => { validate(): void })(body).validate();
}

function one<T>(kind: string): T {
  const found = manifests().filter((manifest) => manifest.body.kind === kind);
  expect(found).toHaveLength(1);
  return found[0]!.body as unknown as T;
}

it('every manifest is valid against the Kubernetes schema of its kind', () => {
  const all = manifests();
  expect(all.map((manifest) => manifest.body.kind).sort()).toEqual([
    'Deployment',
    'Secret',
    'Service',
  ]);
  for (const manifest of all) {
    expect(() => validate(manifest.body)).not.toThrow();
  }
});

it('the schema check rejects a manifest Kubernetes would refuse', () => {
  const deployment = structuredClone(one<IDeployment>('Deployment'));
  Object.assign(deployment.spec!, { replicas: 'three' });
  expect(() => validate(deployment as unknown as Manifest['body'])).toThrow(
    /replicas must be integer/,
  );
  const service = structuredClone(one<IService>('Service'));
  Object.assign(service.spec!.ports![0]!, { port: 'http' });
  expect(() => validate(service as unknown as Manifest['body'])).toThrow(/port/);
});

it('the Deployment probes /health on the port the image serves, as a non-root user, with the Secret', () => {
  const dockerfile = readFileSync(join(PACKAGE_DIR, 'Dockerfile'), 'utf8');
  const exposed = Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1]);
  const deployment = one<IDeployment>('Deployment');
  const pod = deployment.spec!.template.spec!;
  const container = pod.containers[0]!;
  const port = container.ports!.find((p) => p.name === 'http');
  expect(port?.containerPort).toBe(exposed);
  for (const probe of [container.readinessProbe, container.livenessProbe]) {
    expect(probe?.httpGet).toEqual({ path: '/health', port: 'http' });
  }
  expect(pod.securityContext?.runAsNonRoot).toBe(true);
  expect(pod.securityContext?.runAsUser).not.toBe(0);
  // The grace period covers the server's shutdown (streams end at once, requests get 5 s).
  expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(10);

  const secret = one<ISecret>('Secret');
  expect(container.envFrom).toEqual([{ secretRef: { name: secret.metadata!.name } }]);
  expect(Object.keys(secret.stringData!).sort()).toEqual([
    'CANOPY_TOKEN_SIGNING_KEYS',
    'DATABASE_URL',
  ]);

  const service = one<IService>('Service');
  expect(service.spec!.selector).toEqual(deployment.spec!.selector.matchLabels);
  expect(service.spec!.ports![0]!.targetPort).toBe('http');
});
