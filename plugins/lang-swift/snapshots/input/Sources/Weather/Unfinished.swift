func broken() {
    let text = """
    multi-line string \(interpolated(
