require('tsx/cjs');
