"""The command layer: ``briscola-lan`` commands that sit above both net/ and tui/ and pick one."""
