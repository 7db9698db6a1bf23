#!/usr/bin/env node
// xb: the built program is dist/bin/xb.js. This file is here before any build, so an install of
// the workspace links the bin without a warning; it only loads the built one.
import '../dist/bin/xb.js';
