import type { Todo } from "@coder/protocol";
import styles from "./chat.module.css";

const MARK: Record<Todo["status"], string> = { pending: "○", in_progress: "◐", completed: "●" };

/** The agent's plan for the work, folded to one line until opened. */
export function TodoList({ todos }: { todos: Todo[] }) {
  const done = todos.filter((t) => t.status === "completed").length;
  return (
    <details className={styles.todos} data-testid="todo-list">
      <summary>
        Todo {done}/{todos.length}
      </summary>
      <ul>
        {todos.map((t) => (
          <li key={t.id} className={styles[`todo-${t.status}`]}>
            {MARK[t.status]} {t.content}
          </li>
        ))}
      </ul>
    </details>
  );
}
