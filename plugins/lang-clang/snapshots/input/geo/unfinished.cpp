namespace geo {
const char* banner = R"delim(raw string without its end
