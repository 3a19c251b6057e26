// The daily puzzles the page offers, one module per game: add another game's daily here.
import { gardenersDecree } from "./gardeners.js";

export const dailies = [gardenersDecree];
