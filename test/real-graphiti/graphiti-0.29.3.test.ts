import { realServerSuite } from './suite.js';

realServerSuite('0.29.3');
