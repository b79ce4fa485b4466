import { realServerSuite } from './suite.js';

realServerSuite('0.31.2');
