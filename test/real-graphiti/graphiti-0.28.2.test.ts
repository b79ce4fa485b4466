import { realServerSuite } from './suite.js';

realServerSuite('0.28.2');
