"""Teaching: questions, lecture scripts and the claims a story makes."""
