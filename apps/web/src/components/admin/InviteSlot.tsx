/**
 * SLOT for the "Invite" button of h/passwords (`user.invite`): that procedure does not exist on this
 * branch, so the slot renders nothing. Whoever merges both replaces this body with the invite button.
 */
export function InviteSlot() {
  return null;
}
