"""The conformance suite: one module per property of spec section 10."""
