export { type FunctionComplexity, functionComplexities } from './function-complexities.js';
export { touchedFunctions } from './touched-functions.js';
