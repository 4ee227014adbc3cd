deploy() {
    cat <<EOF
never terminated heredoc $(date
