#!/usr/bin/env node
import { runSimulatorCli } from './simulator-cli';

/** The `mobileclaw-sim` executable (`npm run sim`): see {@link runSimulatorCli}. */
runSimulatorCli(process.argv.slice(2), process.env);
