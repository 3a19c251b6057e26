"""Die Gärten von Versailles: placement rules, majorities, scoring and the optimal solo garden."""
