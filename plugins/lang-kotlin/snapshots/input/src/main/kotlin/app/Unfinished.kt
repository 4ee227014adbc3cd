fun broken() {
    val s = """raw ${ "nested
