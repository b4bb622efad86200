export {
  COMPLEX_FUNCTION_RULE,
  COMPLEX_FUNCTION_SEVERITY,
  COMPLEX_FUNCTION_THRESHOLD,
  complexFunctionMessage,
} from './complex-function.js';
export { type FunctionComplexity, functionComplexities } from './function-complexities.js';
export { touchedFunctions } from './touched-functions.js';
export { MATERIAL_CHANGE_SHARE, writtenFunctions } from './written-functions.js';
