import styles from "./presence.module.css";

/**
 * Marks a person who joined through a share link: they chose their own name, so the owner and the
 * agent never look like them (the service also refuses names that look like the owner's or agent's).
 */
export function GuestBadge() {
  return (
    <span className={styles.guest} data-testid="guest-badge" title="Joined through a share link">
      guest
    </span>
  );
}
