import type { AnyAction, ChooseCards, LegalActions } from "./protocol.js";

/** An action: one of the games' actions, or any object with a string `type`. */
export type Action = AnyAction | { type: string; [field: string]: unknown };
export type Random = () => number;
type ViewOrLegal = { legal: LegalActions } | LegalActions;

export function concreteActions(viewOrLegal: ViewOrLegal): AnyAction[];
export function choices(viewOrLegal: ViewOrLegal): ChooseCards[];
export function hasDecision(viewOrLegal: ViewOrLegal): boolean;
export function countRange(choice: ChooseCards): [number, number];
export function checkChoice(choice: ChooseCards, ids: readonly string[]): string | null;
export function fillChoice(choice: ChooseCards, ids: readonly string[]): Action;
export function randomFill(choice: ChooseCards, random?: Random): Action;
export function enumerateChoice(choice: ChooseCards, options?: { limit?: number }): Generator<Action>;
export function listActions(viewOrLegal: ViewOrLegal, options?: { limit?: number }): Action[];
export function randomAction(viewOrLegal: ViewOrLegal, random?: Random): Action | null;
