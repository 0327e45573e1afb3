/** OpenShift knowledge as pure functions over plain objects (no I/O). */
export * from './version.js';
export * from './history.js';
export * from './cluster.js';
export * from './collection-time.js';
export * from './cvo.js';
