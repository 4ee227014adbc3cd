deploy() {
# ^^^^^^ reference calls deploy [1:0-1:6]
#     ^^^^ diagnostic warning PARSE_ERRORS: 1 syntax error (1 ERROR node); definitions in the broken region may be missing (to 4:0)
    cat <<EOF
#   ^^^ reference calls cat
never terminated heredoc $(date
#                          ^^^^ reference calls date
# ----- travsr snapshot: bash/scripts/unfinished.sh (bash, phase A, status ok) -----
# node file <file> (unfinished.sh)
