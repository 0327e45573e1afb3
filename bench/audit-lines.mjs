// API server audit events in the shape the API server writes them: one `audit.k8s.io/v1` Event
// per line, fields in the Go struct's order (k8s.io/apiserver/pkg/apis/audit/v1 Event), as the
// OpenShift documentation's "Viewing audit logs" chapter quotes a kube-apiserver line
// (level Metadata, stage ResponseComplete, user with uid and groups, sourceIPs, userAgent,
// objectRef with uid/apiVersion/resourceVersion, responseStatus {metadata, code}, the two
// timestamps, the authorization annotations). Names, addresses and times are made up.
// Used by the audit fixtures (test/fixtures/audit, rule fixtures) and the bench.

/**
 * One line. `e`: time (ISO), verb, user, groups, sourceIP, userAgent, resource, namespace, name,
 * subresource, apiGroup, apiVersion, code, stage (ResponseComplete), uri, requestObject (logged
 * under WriteRequestBodies), decision (allow), reason, message (a refusal's).
 */
export function auditLine(e) {
  const stage = e.stage ?? 'ResponseComplete';
  const group = e.apiGroup ?? '';
  const apiVersion = e.apiVersion ?? 'v1';
  const objectRef = {};
  if (e.resource) objectRef.resource = e.resource;
  if (e.namespace) objectRef.namespace = e.namespace;
  if (e.name) objectRef.name = e.name;
  if (e.name && e.verb !== 'create') objectRef.uid = e.uid ?? stableUid(`${e.resource}/${e.namespace ?? ''}/${e.name}`);
  if (group) objectRef.apiGroup = group;
  if (e.resource) objectRef.apiVersion = apiVersion;
  if (e.subresource) objectRef.subresource = e.subresource;
  const event = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: e.requestObject ? 'RequestResponse' : 'Metadata',
    auditID: e.auditID ?? stableUid(`${e.time}/${e.user ?? ''}/${e.verb}/${e.name ?? ''}/${e.seq ?? 0}`),
    stage,
    requestURI: e.uri ?? requestUri(e),
    verb: e.verb,
    // A failed authentication (401) has no user: `"user":{}` (k8s.io/apiserver filters/authn_audit.go).
    user: e.user === undefined ? {} : { username: e.user, uid: stableUid(e.user), groups: e.groups ?? groupsOf(e.user) },
    sourceIPs: [e.sourceIP ?? '10.0.0.5'],
    userAgent: e.userAgent ?? 'kubectl/v1.27.4 (linux/amd64) kubernetes/4ff1f2b',
  };
  if (e.resource) event.objectRef = objectRef;
  if (stage !== 'RequestReceived') {
    const code = e.code ?? 200;
    // A failed authentication's status is the authenticator's message alone.
    if (e.user === undefined && code === 401) event.responseStatus = { metadata: {}, message: e.message ?? 'Authentication failed, attempted: bearer', code };
    else event.responseStatus = code >= 400 ? { metadata: {}, status: 'Failure', message: e.message ?? reasonText(code), reason: reasonOf(code), code } : { metadata: {}, code };
  }
  if (e.requestObject) event.requestObject = e.requestObject;
  event.requestReceivedTimestamp = e.time;
  event.stageTimestamp = e.stageTime ?? shift(e.time, 6);
  const decision = e.decision ?? (e.code === 403 ? 'forbid' : 'allow');
  event.annotations = e.code === 401 ? {} : { 'authorization.k8s.io/decision': decision, 'authorization.k8s.io/reason': e.reason ?? (decision === 'allow' ? 'RBAC: allowed by ClusterRoleBinding "cluster-admins" of ClusterRole "cluster-admin" to Group "system:cluster-admins"' : '') };
  return JSON.stringify(event);
}

function requestUri(e) {
  const base = e.apiGroup ? `/apis/${e.apiGroup}/${e.apiVersion ?? 'v1'}` : '/api/v1';
  const ns = e.namespace ? `/namespaces/${e.namespace}` : '';
  const name = e.name && e.verb !== 'create' ? `/${e.name}` : '';
  const sub = e.subresource ? `/${e.subresource}` : '';
  return `${base}${ns}/${e.resource ?? ''}${name}${sub}`;
}

function groupsOf(user) {
  if (user.startsWith('system:serviceaccount:')) return ['system:serviceaccounts', `system:serviceaccounts:${user.split(':')[2]}`, 'system:authenticated'];
  if (user.startsWith('system:node:')) return ['system:nodes', 'system:authenticated'];
  if (user === 'system:anonymous') return ['system:unauthenticated'];
  if (user === 'system:admin') return ['system:masters', 'system:authenticated'];
  if (user.startsWith('system:')) return ['system:authenticated'];
  return ['system:authenticated:oauth', 'system:authenticated'];
}

function reasonOf(code) {
  return { 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 422: 'Invalid', 429: 'TooManyRequests' }[code] ?? 'InternalError';
}

function reasonText(code) {
  return { 401: 'Unauthorized', 403: 'forbidden', 404: 'not found', 409: 'the object has been modified; please apply your changes to the latest version and try again', 429: 'Too many requests, please try again later.' }[code] ?? 'error';
}

/** A time `micros` microseconds after `iso`, as the API server writes it (microseconds, Z). */
export function shift(iso, micros) {
  const ms = Date.parse(iso) + micros / 1000;
  return `${new Date(ms).toISOString().slice(0, 23)}${String(Math.floor((micros % 1000) + 1000)).slice(1)}Z`;
}

/** A UUID made from a text: the same on every run (fixtures stay byte-identical). */
export function stableUid(text) {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    h1 = Math.imul(h1 ^ text.charCodeAt(i), 16777619) >>> 0;
    h2 = Math.imul(h2 ^ text.charCodeAt(i), 2246822519) >>> 0;
  }
  const hex = (h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).repeat(2);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
