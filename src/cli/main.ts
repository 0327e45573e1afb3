#!/usr/bin/env node
/**
 * The `mgsift` command. On two cores, a run that reads a large input goes on in a second Node
 * started with one V8 worker thread (relaunch.ts); every other run loads the CLI here.
 */
import { relaunchWithOneV8Thread } from './relaunch.js';

void relaunchWithOneV8Thread()
  .catch(() => false)
  .then((relaunched) => (relaunched ? undefined : import('./program.js')));
