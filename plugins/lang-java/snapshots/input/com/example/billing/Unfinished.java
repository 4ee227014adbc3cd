class Broken {
    String s = """
        text block never closed
