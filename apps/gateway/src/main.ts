#!/usr/bin/env node
import { mobileclawCli } from './cli';

/** The `mobileclaw` executable (`npm start` runs it without arguments): see {@link mobileclawCli}. */
void mobileclawCli(process.env).parseAsync(process.argv);
