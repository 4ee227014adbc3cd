def broken(x:
    return """never closed
