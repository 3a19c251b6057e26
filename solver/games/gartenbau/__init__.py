"""Gartenbau: placement rules, end-of-season prestige and the optimal garden (CP-SAT)."""
