void broken() {
  final s = '''multi ${"nested
