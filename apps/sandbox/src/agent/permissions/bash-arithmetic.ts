import type { Node } from "web-tree-sitter";

/** `[[ a -eq b ]]` compares its operands as arithmetic. */
const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
/** What brings a value only known at run time into an arithmetic expression. */
const VALUES = new Set(["variable_name", "word", "simple_expansion", "expansion", "command_substitution"]);

/**
 * Whether a node evaluates arithmetic on a value only known at run time. bash evaluates such a
 * value as an expression, and `x[$(cmd)]` in one runs `cmd`: `read a <file; echo $((a))` runs
 * whatever the file says, though neither `read` nor `echo` does on its own.
 */
export function arithmeticOnValues(node: Node): boolean {
  switch (node.type) {
    case "arithmetic_expansion":
      return mentionsValue(node.children);
    case "c_style_for_statement":
      return mentionsValue(
        node.children.filter((c) => c.type !== "do_group" && c.type !== "compound_statement"),
      );
    case "compound_statement":
      return node.firstChild?.type === "((" && mentionsValue(node.children);
    case "subscript": {
      const index = node.children.findIndex((c) => c.type === "[");
      return mentionsValue(node.children.slice(index + 1));
    }
    case "expansion": {
      // ${x:offset:length}: what follows the first `:` is arithmetic.
      const colon = node.children.findIndex((c) => c.type === ":");
      return colon !== -1 && mentionsValue(node.children.slice(colon + 1));
    }
    case "binary_expression":
      return (
        node.children.some((c) => c.type === "test_operator" && ARITHMETIC_TESTS.has(c.text)) &&
        mentionsValue(node.children)
      );
    default:
      return false;
  }
}

function mentionsValue(nodes: readonly Node[]): boolean {
  const stack = [...nodes];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (VALUES.has(node.type)) return true;
    stack.push(...node.children);
  }
  return false;
}
