class Broken {
    string s = $@"verbatim {interp
