// Stryker ignorers, the rules of the mutation bench's triage that apply to whole classes of mutants. The reference provider's fault switches are test equipment, not provider behaviour.
// Certification runs the provider with no fault on, so code that only a switch reaches is dead there, and a
// mutant of the switch itself (`faults.has(x)` → false) changes nothing. Both would be noise in the survivors;
// so would the wording of error messages, which the contract leaves free.
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** `faults.has(…)` or `<anything>.faults.has(…)`. */
function isFaultSwitch(node) {
  if (node?.type !== 'CallExpression') return false;
  const callee = node.callee;
  if (callee?.type !== 'MemberExpression' || callee.property?.name !== 'has') return false;
  const target = callee.object;
  return (
    (target?.type === 'Identifier' && target.name === 'faults') ||
    (target?.type === 'MemberExpression' && target.property?.name === 'faults')
  );
}

/** True when the expression is true only with a fault on: a switch, or an `&&` with a switch as an operand. */
function onlyWithFault(node) {
  if (isFaultSwitch(node)) return true;
  if (node?.type === 'LogicalExpression' && node.operator === '&&') {
    return onlyWithFault(node.left) || onlyWithFault(node.right);
  }
  return false;
}

/** True when the expression is false only with a fault on: `!switch`. */
function onlyWithoutFault(node) {
  return node?.type === 'UnaryExpression' && node.operator === '!' && onlyWithFault(node.argument);
}

const REASON = 'fault switch (test equipment): certification runs the reference provider with every fault off';
const FREE_TEXT =
  "an error answer's message is free text: the contract's ErrorResponse names it without a rule (Errors: { code, message })";

/** An error answer's message: a `message` property's value, or the third argument of `fail(status, code, message)`. */
function isErrorMessage(child, parent) {
  const node = parent.node;
  if (node.type === 'ObjectProperty') return child.key === 'value' && node.key?.name === 'message';
  return node.type === 'CallExpression' && node.callee?.name === 'fail' && child.listKey === 'arguments' && child.key === 2;
}

class FaultSwitchIgnorer {
  shouldIgnore(path) {
    for (let child = path, parent = path.parentPath; parent; child = parent, parent = parent.parentPath) {
      const node = parent.node;
      if (isFaultSwitch(child.node) || onlyWithFault(child.node)) return REASON;
      if (isErrorMessage(child, parent)) return FREE_TEXT;
      const branching = node.type === 'IfStatement' || node.type === 'ConditionalExpression';
      if (branching && child.key === 'consequent' && onlyWithFault(node.test)) return REASON;
      if (branching && child.key === 'alternate' && onlyWithoutFault(node.test)) return REASON;
    }
    return undefined;
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Ignore, 'fault-switches', FaultSwitchIgnorer)];
