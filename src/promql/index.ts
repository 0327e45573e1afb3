export * from './parse.js';
export * from './evaluate.js';
