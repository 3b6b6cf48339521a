// Protocol values in words: the page shows phrases, never a raw value such as
// `land_revealed` (an unknown value is shown with spaces for its underscores).

/** A protocol value in words, for a value the page has no phrase for: `stale_version` is "stale version". */
export function words(value) {
  return String(value).replaceAll("_", " ");
}

/** How a Base Race battle was settled (its rule), in words. */
export function battleKind(kind) {
  return (
    {
      land: "a land is revealed",
      land_vs_land: "land against land",
      spell: "an instant, sorcery or enchantment: both discarded",
      artifact: "an artifact: discarded for an extra turn",
      creature: "creature against creature",
    }[kind] ?? words(kind)
  );
}

/** Why a Base Race game ended, in words. */
export function endReason(reason) {
  return (
    {
      land_revealed: "a battle revealed a land, whose owner loses",
      land_attacked_land: "a land attacked a land, and the attacker wins",
      move_limit: "the move limit was reached, a draw",
    }[reason] ?? words(reason)
  );
}
