export { sharedPath } from '../../scripts/shared-data.mjs';
