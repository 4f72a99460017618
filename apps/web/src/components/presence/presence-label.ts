import type { PresencePerson } from "@coder/protocol";

/** How an entry reads: a person by their name, the agent with whom it works for. */
export function presenceLabel(person: PresencePerson): string {
  return person.agent?.for ? `${person.name} · for ${person.agent.for}` : person.name;
}
